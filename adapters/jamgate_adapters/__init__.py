"""Built-in stores, embedders and formats, each an ordinary plugin."""
