"""The intermediate representation: gast trees in levels form, their grammar and names."""
