from perfwh.cli import run

run()
