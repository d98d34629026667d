-- lockspi JDBC provider: the schema on H2 2.x, for teams that migrate with Flyway or Liquibase.
-- The provider creates exactly this on first use unless createSchema=false. With tablePrefix=P, replace every
-- "lockspi_" below by P. Times are milliseconds since the epoch by the database's clock.

-- One row per lock that has state: its exclusive holder (mutex, non-reentrant mutex, writer), if any, and how
-- many rows of lockspi_entry it has (waiters, readers, semaphore permits). A holder's row carries its revocable
-- mark and, once an operator asks (LockService.revoke), who asked: the holder's client then lets go.
CREATE TABLE IF NOT EXISTS lockspi_lock (
    lock_id    VARCHAR(64)   NOT NULL PRIMARY KEY,
    lock_name  VARCHAR(5500) NOT NULL,
    owner      VARCHAR(100),
    kind       CHAR(1),
    token      BIGINT,
    granted_ms BIGINT,
    expires_ms BIGINT,
    entries    INTEGER       NOT NULL,
    revocable  BOOLEAN,
    revoked_by VARCHAR(200)
);

-- Waiters in arrival order (seq), and the shared holders (readers, permits: token not NULL).
CREATE TABLE IF NOT EXISTS lockspi_entry (
    entry_id   VARCHAR(100) NOT NULL PRIMARY KEY,
    lock_id    VARCHAR(64)  NOT NULL,
    seq        BIGINT       NOT NULL,
    kind       CHAR(1)      NOT NULL,
    permits    INTEGER      NOT NULL,
    token      BIGINT,
    granted_ms BIGINT,
    expires_ms BIGINT       NOT NULL,
    revocable  BOOLEAN,
    revoked_by VARCHAR(200)
);
CREATE INDEX IF NOT EXISTS lockspi_entry_lock ON lockspi_entry (lock_id, seq);

-- Fencing tokens and queue order.
CREATE SEQUENCE IF NOT EXISTS lockspi_token;

-- Tables created before revocation lack its two columns: these add them (nothing if present), so the file also
-- upgrades a schema created by an earlier lock-spi-jdbc.
ALTER TABLE lockspi_lock ADD COLUMN IF NOT EXISTS revocable BOOLEAN;
ALTER TABLE lockspi_lock ADD COLUMN IF NOT EXISTS revoked_by VARCHAR(200);
ALTER TABLE lockspi_entry ADD COLUMN IF NOT EXISTS revocable BOOLEAN;
ALTER TABLE lockspi_entry ADD COLUMN IF NOT EXISTS revoked_by VARCHAR(200);
