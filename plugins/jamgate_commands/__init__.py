"""Jamgate's commands, each a `jamgate.plugins` module registered as a third party's would be."""
