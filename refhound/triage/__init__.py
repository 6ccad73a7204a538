"""Reviewer triage: many submissions checked, ranked most suspicious first, with a static dashboard."""
