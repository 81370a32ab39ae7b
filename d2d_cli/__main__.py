from d2d_cli.cli import run

run()
