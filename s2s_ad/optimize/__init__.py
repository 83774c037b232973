"""Stage 7: clean-up passes over generated derivative code.

schedule.py declares the passes in the order they run (REVERSE, FORWARD), each with one
signature `(body, facts) -> body` over body.Body; the other modules hold the passes
themselves, written over statement lists.
"""
