"""The commands, one module each: ``spidercli/cli/app.py``'s ``COMMANDS`` names them, and a
command's module is imported only when that command runs. Each reads its options, calls the front
door (``spidercli.api``) or the module that does the work, prints, and exits."""
