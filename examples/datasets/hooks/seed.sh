#!/bin/sh
# before_all: runs once before every test; its JSON sets ${CUSTOMER}.
# (stdin lists the tests that will run: {"schema": "ananke.suite/v1", "tests": [...]})
cat > /dev/null
echo '{"CUSTOMER": "Ada"}'
