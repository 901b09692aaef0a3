"""The terms every floor of the judge uses: the options, a submission's manifest, the settings
and the replay of a run, the 304 boxes, verdicts and check ids, why a run stops, and text made
safe to show."""
