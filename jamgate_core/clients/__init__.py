"""(Being written.)"""
