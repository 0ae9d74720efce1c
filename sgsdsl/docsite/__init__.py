"""The rules catalogue (`sgsdsl docs`): build.py turns a checked program into a static searchable site."""
