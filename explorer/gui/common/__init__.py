"""What every feature of the window uses: theme, widgets, numbers, texts, settings, the page hooks, the task runner, the exception guard."""
