"""Command-line interface (argparse); one module per subcommand."""
