"""The audit: every event of a tournament in words, who and when."""
