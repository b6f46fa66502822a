"""Exam-prep content pipeline: YAML sources -> validated models -> citations -> PDF, Anki deck, JSON bank."""

__version__ = "0.2.0"
