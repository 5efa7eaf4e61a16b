-- On SQLite the rate-limit counters are kept in a file of their own beside this one
-- (`<file>.limits`, created at start-up), written without waiting for the disk: their
-- table here is no longer used. Counters are disposable; the ones it held are dropped.
DROP TABLE rate_limits;
