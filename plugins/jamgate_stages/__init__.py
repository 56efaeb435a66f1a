"""Built-in gate stages, each an ordinary `jamgate.stages` plugin."""
