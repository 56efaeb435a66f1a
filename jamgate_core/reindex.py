"""(Being written: see docs/decisions.md and the open issues.)"""
