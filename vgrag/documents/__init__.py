"""Reading what users give: documents into titled sections, triple files, the text boundary."""
