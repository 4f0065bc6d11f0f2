-- trecscore on PostgreSQL: one login role that owns one database, and nothing else.
--
--   sudo -u postgres psql -v password='A-LONG-RANDOM-PASSWORD' < deploy/postgres-setup.sql
--
-- The role is not a superuser and cannot create databases or roles. It owns its database
-- because trecscore applies its migrations at start (`serve migrate`, and every `serve`) and
-- pg-boss creates and migrates its own schema `pgboss`: the role needs CREATE there. A
-- separate migration owner with a DML-only runtime role is not supported yet.
-- Names: role trecscore, database trecscore (edit both here and in --db to change them).
\set ON_ERROR_STOP on

CREATE ROLE trecscore LOGIN PASSWORD :'password'
  NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;

-- Text is compared with collate "C" by the queries themselves, whatever the locale.
CREATE DATABASE trecscore OWNER trecscore ENCODING 'UTF8' TEMPLATE template0;

-- Only the owner (and superusers) may connect; no other role gets anything by default.
REVOKE ALL ON DATABASE trecscore FROM PUBLIC;

\connect trecscore
-- PostgreSQL 15 already keeps CREATE on schema public from PUBLIC; 12–14 do not.
REVOKE ALL ON SCHEMA public FROM PUBLIC;
ALTER SCHEMA public OWNER TO trecscore;
