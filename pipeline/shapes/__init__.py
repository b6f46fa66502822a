"""Interaction shapes: the few forms every question takes in the view, after QTI's interactions.

A question type (pipeline/questions/) turns its source into parts of these shapes; renderers write
shapes, never type names; grading of every shape is defined once (`grading`) and reaches the site as data.
"""
