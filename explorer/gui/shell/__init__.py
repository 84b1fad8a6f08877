"""The window around the features: start-up, main window, menus, undo, languages."""
