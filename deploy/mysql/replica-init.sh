#!/bin/bash
# First start of the replica: replicate the primary by GTID auto-positioning, read only from the next
# start on (the server that runs this script is the image's temporary one, which must still write).
set -euo pipefail
mysql -uroot -p"$MYSQL_ROOT_PASSWORD" <<SQL
CHANGE REPLICATION SOURCE TO
  SOURCE_HOST = 'mysql-primary',
  SOURCE_PORT = 3306,
  SOURCE_USER = 'replicator',
  SOURCE_PASSWORD = '${REPLICATION_PASSWORD}',
  SOURCE_AUTO_POSITION = 1,
  SOURCE_CONNECT_RETRY = 5,
  GET_SOURCE_PUBLIC_KEY = 1;
SET PERSIST_ONLY read_only = ON;
SET PERSIST_ONLY super_read_only = ON;
SQL
