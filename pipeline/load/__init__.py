"""Loading: YAML source files with node positions, validated against the pydantic models of schema/."""
