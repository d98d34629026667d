-- lockspi JDBC provider: the schema on PostgreSQL (9.6 or newer), for teams that migrate with Flyway or Liquibase.
-- The provider creates exactly this on first use unless createSchema=false. With tablePrefix=P, replace every
-- "lockspi_" below by P. Times are milliseconds since the epoch by the database's clock.

-- One row per lock that has state: its exclusive holder (mutex, non-reentrant mutex, writer), if any, and how
-- many rows of lockspi_entry it has (waiters, readers, semaphore permits). A holder's row carries its revocable
-- mark and, once an operator asks (LockService.revoke), who asked: the holder's client then lets go.
CREATE TABLE IF NOT EXISTS lockspi_lock (
    lock_id    VARCHAR(64)   NOT NULL PRIMARY KEY, -- base64url SHA-256 of lock_name
    lock_name  VARCHAR(5500) NOT NULL,             -- the lock's key (its name, or ~ + base64url of it)
    owner      VARCHAR(100),                       -- the exclusive holder's acquisition, NULL if none
    kind       CHAR(1),                            -- M mutex, N non-reentrant mutex, W writer
    token      BIGINT,                             -- the exclusive holder's fencing token
    granted_ms BIGINT,                             -- when it was granted
    expires_ms BIGINT,                             -- when its lease ends unless renewed
    entries    INTEGER       NOT NULL,             -- its rows in lockspi_entry (at least)
    revocable  BOOLEAN,                            -- TRUE if operators may revoke the holder (revocable=true)
    revoked_by VARCHAR(200)                        -- who asked to revoke it, NULL if nobody has
);

-- Waiters in arrival order (seq), and the shared holders (readers, permits: token not NULL).
CREATE TABLE IF NOT EXISTS lockspi_entry (
    entry_id   VARCHAR(100) NOT NULL PRIMARY KEY,  -- the acquisition: client id and number
    lock_id    VARCHAR(64)  NOT NULL,
    seq        BIGINT       NOT NULL,              -- queue order
    kind       CHAR(1)      NOT NULL,              -- M, N, W, R reader, S semaphore permit
    permits    INTEGER      NOT NULL,
    token      BIGINT,                             -- fencing token once granted, NULL while waiting
    granted_ms BIGINT,
    expires_ms BIGINT       NOT NULL,              -- a holder's lease, or a waiter's liveness
    revocable  BOOLEAN,                            -- TRUE if operators may revoke it
    revoked_by VARCHAR(200)                        -- who asked to revoke it, NULL if nobody has
);
CREATE INDEX IF NOT EXISTS lockspi_entry_lock ON lockspi_entry (lock_id, seq);

-- Fencing tokens and queue order. CACHE must stay 1: a session-local cache would hand out tokens out of order.
CREATE SEQUENCE IF NOT EXISTS lockspi_token CACHE 1;

-- Tables created before revocation lack its two columns: these add them (nothing if present), so the file also
-- upgrades a schema created by an earlier lock-spi-jdbc.
ALTER TABLE lockspi_lock ADD COLUMN IF NOT EXISTS revocable BOOLEAN;
ALTER TABLE lockspi_lock ADD COLUMN IF NOT EXISTS revoked_by VARCHAR(200);
ALTER TABLE lockspi_entry ADD COLUMN IF NOT EXISTS revocable BOOLEAN;
ALTER TABLE lockspi_entry ADD COLUMN IF NOT EXISTS revoked_by VARCHAR(200);
