#!/bin/sh
# A hook prints one JSON object; its keys become ${VARIABLES} in the test.
echo '{"CITY": "Tokyo", "CONDITIONS": "cloudy"}'
