"""The room: printouts, the projector display, reports, the live feed and players'
own score entry.
"""
