"""The application's document, Qt-free: the Explorer's scenario, run, cycle and selection, the command stack
and the scenario's simulation (``workspace.Workspace``, owned by the main window and handed to every feature;
the pages are views of it)."""
