"""The content's kinds of value (`fields`) and a question's `variants:` (`variant_fields`): what the question
types (pipeline/questions/) and the content model (schema/) are both built from. It sits below both and imports
neither, so the types can be imported by schema/ without schema/ being imported by the types."""
