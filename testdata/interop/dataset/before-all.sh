#!/bin/sh
# before_all: prints the variables every case sees. RUN_TAG names this run
# (DATASET_TAG when the test sets it); every case's after hook needs it.
printf '{"RUN_TAG": "%s"}\n' "${DATASET_TAG:-manual}"
