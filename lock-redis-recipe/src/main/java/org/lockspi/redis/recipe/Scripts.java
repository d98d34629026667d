package org.lockspi.redis.recipe;

/**
 * The Lua scripts, run with {@code EVALSHA} ({@link Script}). Each runs atomically on the server, so check-and-act
 * never races with another client.
 *
 * <p>The fencing token is {@code max(counter + 1, server clock in microseconds)}: a counter lost with a
 * non-persistent restart starts again above every earlier token as long as the server clock did not step back. The
 * acquiring script reads the counter, computes the token, takes the lock with {@code SET NX PX} and only then
 * writes the counter, so an attempt that finds the lock taken writes nothing but its waiter marks. One
 * {@code TIME} call serves both the token's floor and the grant time. Numbers cross the Lua boundary as strings
 * formatted with {@code %d}, since Lua 5.1's default number format loses digits above 10^14 (the tokens stay
 * exact in a Lua double up to 2^53, about 285 years of microseconds).
 *
 * <p>The counter expires twice the granting client's lease time after the last grant ({@code SET ... PX}), so a lock
 * nobody uses leaves no key behind: a counter created again later starts from the server clock, which has passed
 * every earlier token (a token is at most a few grants ahead of the clock of its grant). An older client of this
 * recipe writes the counter without an expiry; the next grant by a newer one gives it one again.
 *
 * <p>An acquisition with a lease time of its own ({@code AcquireRequest.leaseTime()}) passes the smaller of it and the
 * lease ms as its lease ms, and its renewals the server ms of its end (its grant's server ms plus the lease time): a
 * renewal extends the key or member by what is left until that end at most, so the server frees the lock at the
 * end by its own clock whatever the holder does.
 *
 * <p>Every release publishes on the lock's channel ({@link RedisKeys#channel}), so that waiters subscribed to it
 * try again at once instead of at their next poll.
 *
 * <p>Revocation (spec §27): a revocable acquisition's entry ends in {@code |r} ({@link RedisEntry}); {@link #REVOKE}
 * finds the holder by its fencing token, checks that mark, writes the request into the lock's hash of requests
 * ({@link RedisKeys#revocations}, field: the owner token, value: the requester) and names the owner token on the
 * recipe's revocation channel. The holder's renewal returns the requester instead of extending the lease, and the
 * holder frees the lock itself with its release script, which also deletes the request. Nothing here frees a lock
 * for the revoker.
 */
final class Scripts {
    private Scripts() {
    }

    /** Shared prologue: effects replication (needed before Redis 5 for writes after TIME), the clock and helpers. */
    private static final String PROLOGUE = ""
            + "if redis.replicate_commands then redis.replicate_commands() end\n"
            + "local t = redis.call('TIME')\n"
            + "local nowus = tonumber(t[1]) * 1000000 + tonumber(t[2])\n"
            + "local now = math.floor(nowus / 1000)\n"
            + "local function nexttoken(key)\n"
            + "  local n = tonumber(redis.call('GET', key) or '0') + 1\n"
            + "  if n < nowus then n = nowus end\n"
            + "  return n\n"
            + "end\n"
            + "local function keepset(key, leasems)\n"
            + "  if redis.call('PTTL', key) < leasems then redis.call('PEXPIRE', key, leasems) end\n"
            + "end\n";

    /**
     * First-come first-served helpers (the queue and the waiter keys share the lock's hash tag). A queued waiter's
     * waiter key holds its kind's letter ({@code M}, {@code N}, {@code W}, {@code R} for a reader, {@code S} for
     * a permit); an entry whose waiter key expired (a dead waiter) is dropped when met. {@code livehead} returns
     * the live head and its kind; {@code wakehead} publishes whom a freed lock may go to: the head by its owner
     * token, or everyone ({@code *}) when the head is a reader, since the readers behind it may come in together;
     * {@code blocked} says whether live entries ahead of {@code me} (the whole queue if {@code me} is not in it)
     * hold it back, asking {@code test(kind, count so far)} of each.
     */
    private static final String QUEUE = ""
            + "local function livehead(q, prefix)\n"
            + "  while true do\n"
            + "    local head = redis.call('ZRANGE', q, 0, 0)[1]\n"
            + "    if not head then return nil end\n"
            + "    local kind = redis.call('GET', prefix .. head)\n"
            + "    if kind then return head, kind end\n"
            + "    redis.call('ZREM', q, head)\n"
            + "  end\n"
            + "end\n"
            + "local function wakehead(q, prefix, channel)\n"
            + "  local head, kind = livehead(q, prefix)\n"
            + "  if head then redis.call('PUBLISH', channel, kind == 'R' and '*' or head) end\n"
            + "end\n"
            + "local function blocked(q, prefix, me, test)\n"
            + "  local from = 0\n"
            + "  local seen = 0\n"
            + "  while true do\n"
            + "    local batch = redis.call('ZRANGE', q, from, from + 15)\n"
            + "    if #batch == 0 then return false end\n"
            + "    for _, m in ipairs(batch) do\n"
            + "      if m == me then return false end\n"
            + "      local kind = redis.call('GET', prefix .. m)\n"
            + "      if kind then\n"
            + "        seen = seen + 1\n"
            + "        if test(kind, seen) then return true end\n"
            + "        from = from + 1\n"
            + "      else\n"
            + "        redis.call('ZREM', q, m)\n"
            + "      end\n"
            + "    end\n"
            + "  end\n"
            + "end\n"
            + "local function always() return true end\n";

    /**
     * Exclusive acquire. KEYS: lock, fence, this attempt's waiter key, then (write lock or first-come first-served
     * only) readers, waiting writers, the waiter queue. ARGV: token, lease ms, ms a failed attempt marks itself as
     * waiting for ('0': it will not wait), the kind's letter ({@link RedisEntry}), '1' if an earlier attempt may
     * have left waiter marks, '1' if the acquisition is revocable, then (optional) '1' for a write lock (no live
     * reader may hold it), '1' for first-come first-served (only the head of the queue may take the lock; a failed
     * waiting attempt joins the queue), the prefix of the waiter keys (to skip queue entries whose waiter key
     * expired: a dead waiter). A plain mutex passes only the first three keys and six arguments. A waiting write
     * lock is also listed among the waiting writers. The key's value is the holder's entry, {@code <owner
     * token>|<fencing token>|<server ms>|<kind>}, and {@code |r} after it if revocable. Returns the fencing token
     * and the entry, or nil if held by someone else (or, first-come first-served, if another waiter is ahead).
     * Uncontended and not first-come first-served it runs TIME, GET, SET and SET.
     */
    static final Script ACQUIRE_EXCLUSIVE = new Script(PROLOGUE + QUEUE
            + "local write = ARGV[7] == '1'\n"
            + "local fair = ARGV[8] == '1'\n"
            + "local function busy()\n"
            + "  local wait = tonumber(ARGV[3])\n"
            + "  if wait > 0 then\n"
            + "    redis.call('SET', KEYS[3], fair and ARGV[4] or 'waiting', 'PX', ARGV[3])\n"
            + "    if write then\n"
            + "      redis.call('ZADD', KEYS[5], string.format('%d', now + wait), ARGV[1])\n"
            + "      keepset(KEYS[5], wait)\n"
            + "    end\n"
            + "    if fair then\n"
            + "      redis.call('ZADD', KEYS[6], 'NX', string.format('%d', nowus), ARGV[1])\n"
            + "      keepset(KEYS[6], wait)\n"
            + "    end\n"
            + "  end\n"
            + "  return false\n"
            + "end\n"
            + "if fair and blocked(KEYS[6], ARGV[9], ARGV[1], always) then return busy() end\n"
            + "if write then\n"
            + "  redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', string.format('%d', now))\n"
            + "  if redis.call('ZCARD', KEYS[4]) > 0 then return busy() end\n"
            + "end\n"
            + "local n = nexttoken(KEYS[2])\n"
            + "local entry = ARGV[1] .. '|' .. string.format('%d', n) .. '|' .. string.format('%d', now) .. '|' .. ARGV[4]\n"
            + "if ARGV[6] == '1' then entry = entry .. '|r' end\n"
            + "if not redis.call('SET', KEYS[1], entry, 'NX', 'PX', ARGV[2]) then return busy() end\n"
            + "redis.call('SET', KEYS[2], string.format('%d', n), 'PX', string.format('%d', 2 * tonumber(ARGV[2])))\n"
            + "if ARGV[5] == '1' then\n"
            + "  redis.call('DEL', KEYS[3])\n"
            + "  if write then redis.call('ZREM', KEYS[5], ARGV[1]) end\n"
            + "  if fair then redis.call('ZREM', KEYS[6], ARGV[1]) end\n"
            + "end\n"
            + "return {n, entry}\n");

    /**
     * Shared acquire (a reader or a semaphore permit). KEYS: lock, fence, sorted set, waiting writers, this
     * attempt's waiter key, then (first-come first-served only) the waiter queue. ARGV: token, lease ms, limit (0:
     * none), '1' for a reader (no writer may hold the lock and no writer may be waiting), the owner token of a
     * write lease being downgraded (or ''), which lets the reader in at once, ms a failed attempt marks itself as
     * waiting for ('0': it will not wait), '1' if an earlier attempt may have left a waiter mark, '1' if the
     * acquisition is revocable, then (optional) '1' for first-come first-served, the prefix of the waiter keys, the
     * kind's letter ({@code R} or {@code S}), the lock's channel. First-come first-served, the queue replaces the
     * waiting writers: a reader may come in while only readers are queued ahead of it, a permit while fewer live
     * waiters are ahead of it than permits are free; a queued waiter that got in names the next head on the
     * channel (more may fit). The member is the holder's entry, {@code <owner token>|<fencing token>|<server ms>},
     * and {@code ||r} after it if revocable (an empty kind, then the mark). Returns the fencing token and the entry,
     * or nil if it must wait.
     */
    static final Script ACQUIRE_SHARED = new Script(PROLOGUE + QUEUE
            + "local lease = tonumber(ARGV[2])\n"
            + "local fair = ARGV[9] == '1'\n"
            + "local function busy()\n"
            + "  if tonumber(ARGV[6]) > 0 then\n"
            + "    redis.call('SET', KEYS[5], fair and ARGV[11] or 'waiting', 'PX', ARGV[6])\n"
            + "    if fair then\n"
            + "      redis.call('ZADD', KEYS[6], 'NX', string.format('%d', nowus), ARGV[1])\n"
            + "      keepset(KEYS[6], tonumber(ARGV[6]))\n"
            + "    end\n"
            + "  end\n"
            + "  return false\n"
            + "end\n"
            + "redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', string.format('%d', now))\n"
            + "local limit = tonumber(ARGV[3])\n"
            + "if ARGV[4] == '1' then\n"
            + "  local writer = redis.call('GET', KEYS[1])\n"
            + "  if ARGV[5] == '' or writer ~= ARGV[5] then\n"
            + "    if writer then return busy() end\n"
            + "    if fair then\n"
            + "      if blocked(KEYS[6], ARGV[10], ARGV[1], function(kind) return kind ~= 'R' end) then return busy() end\n"
            + "    else\n"
            + "      redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', string.format('%d', now))\n"
            + "      if redis.call('ZCARD', KEYS[4]) > 0 then return busy() end\n"
            + "    end\n"
            + "  end\n"
            + "end\n"
            + "if limit > 0 then\n"
            + "  local free = limit - redis.call('ZCARD', KEYS[3])\n"
            + "  if free <= 0 then return busy() end\n"
            + "  if fair and blocked(KEYS[6], ARGV[10], ARGV[1], function(kind, seen) return seen >= free end) then\n"
            + "    return busy()\n"
            + "  end\n"
            + "end\n"
            + "local n = nexttoken(KEYS[2])\n"
            + "redis.call('SET', KEYS[2], string.format('%d', n), 'PX', string.format('%d', 2 * tonumber(ARGV[2])))\n"
            + "local entry = ARGV[1] .. '|' .. string.format('%d', n) .. '|' .. string.format('%d', now)\n"
            + "if ARGV[8] == '1' then entry = entry .. '||r' end\n"
            + "redis.call('ZADD', KEYS[3], string.format('%d', now + lease), entry)\n"
            + "keepset(KEYS[3], lease)\n"
            + "if ARGV[7] == '1' then\n"
            + "  redis.call('DEL', KEYS[5])\n"
            + "  if fair then\n"
            + "    redis.call('ZREM', KEYS[6], ARGV[1])\n"
            + "    wakehead(KEYS[6], ARGV[10], ARGV[12])\n"
            + "  end\n"
            + "end\n"
            + "return {n, entry}\n");

    /**
     * Exclusive renew. KEYS: lock, the lock's revocation requests. ARGV: entry, lease ms, the server ms at which the
     * acquisition's own lease time ends it ('0': none), the owner token if the acquisition is revocable (else '').
     * The key is extended by the lease ms, but never past that end: by what is left of it, and not at all once
     * nothing is (the key then expires at the end by itself). Without an end it reads no clock. Returns 1 if still
     * ours, 0 if not, or (a revocable acquisition asked to let go) the requester, extending nothing.
     */
    static final Script RENEW_EXCLUSIVE = new Script(""
            + "if redis.call('GET', KEYS[1]) == ARGV[1] then\n"
            + "  if ARGV[4] ~= '' then\n"
            + "    local by = redis.call('HGET', KEYS[2], ARGV[4])\n"
            + "    if by then return by end\n"
            + "  end\n"
            + "  local ms = tonumber(ARGV[2])\n"
            + "  if ARGV[3] ~= '0' then\n"
            + "    if redis.replicate_commands then redis.replicate_commands() end\n"
            + "    local t = redis.call('TIME')\n"
            + "    local left = tonumber(ARGV[3]) - (tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000))\n"
            + "    if left < ms then ms = left end\n"
            + "  end\n"
            + "  if ms > 0 then redis.call('PEXPIRE', KEYS[1], string.format('%d', ms)) end\n"
            + "  return 1\n"
            + "end\n"
            + "return 0\n");

    /**
     * Shared renew. KEYS: sorted set, the lock's revocation requests. ARGV: entry, lease ms, the server ms at which
     * the acquisition's own lease time ends it ('0': none), the owner token if revocable (else ''), as for
     * {@link #RENEW_EXCLUSIVE}. Returns 1 if still ours, 0 if not, or the requester of a revocation.
     */
    static final Script RENEW_SHARED = new Script(PROLOGUE
            + "local lease = tonumber(ARGV[2])\n"
            + "local score = redis.call('ZSCORE', KEYS[1], ARGV[1])\n"
            + "if not score or tonumber(score) <= now then return 0 end\n"
            + "if ARGV[4] ~= '' then\n"
            + "  local by = redis.call('HGET', KEYS[2], ARGV[4])\n"
            + "  if by then return by end\n"
            + "end\n"
            + "if ARGV[3] ~= '0' and tonumber(ARGV[3]) - now < lease then lease = tonumber(ARGV[3]) - now end\n"
            + "if lease <= 0 then return 1 end\n"
            + "redis.call('ZADD', KEYS[1], 'XX', string.format('%d', now + lease), ARGV[1])\n"
            + "keepset(KEYS[1], lease)\n"
            + "return 1\n");

    /**
     * Exclusive release: compare-and-delete, then a message on the lock's channel (empty: it wakes one waiter per
     * waiting client, see {@link Wakeups}). KEYS: lock, the lock's revocation requests. ARGV: entry, channel, the
     * owner token of a revocable acquisition (else ''), whose request, if any, is deleted. Returns 1 if it was
     * ours, else 0.
     */
    static final Script RELEASE_EXCLUSIVE = new Script(""
            + "if ARGV[3] ~= '' then redis.call('HDEL', KEYS[2], ARGV[3]) end\n"
            + "if redis.call('GET', KEYS[1]) == ARGV[1] then\n"
            + "  redis.call('DEL', KEYS[1])\n"
            + "  redis.call('PUBLISH', ARGV[2], '')\n"
            + "  return 1\n"
            + "end\n"
            + "return 0\n");

    /**
     * First-come first-served exclusive release: compare-and-delete, then a message naming the live head of the
     * queue, the only waiter that may take the lock (none if nobody queues). KEYS: lock, waiter queue, the lock's
     * revocation requests. ARGV: entry, channel, the prefix of the waiter keys, the owner token of a revocable
     * acquisition (else ''). Returns 1 if it was ours, else 0.
     */
    static final Script RELEASE_FAIR = new Script(QUEUE
            + "if ARGV[4] ~= '' then redis.call('HDEL', KEYS[3], ARGV[4]) end\n"
            + "if redis.call('GET', KEYS[1]) == ARGV[1] then\n"
            + "  redis.call('DEL', KEYS[1])\n"
            + "  wakehead(KEYS[2], ARGV[3], ARGV[2])\n"
            + "  return 1\n"
            + "end\n"
            + "return 0\n");

    /**
     * First-come first-served shared release: the entry removed, then a message naming the live head of the
     * queue (everyone if it is a reader). KEYS: sorted set, waiter queue, the lock's revocation requests. ARGV:
     * entry, channel, the prefix of the waiter keys, the owner token of a revocable acquisition (else ''). Returns 1
     * if it was there, else 0.
     */
    static final Script RELEASE_SHARED_FAIR = new Script(QUEUE
            + "if ARGV[4] ~= '' then redis.call('HDEL', KEYS[3], ARGV[4]) end\n"
            + "local n = redis.call('ZREM', KEYS[1], ARGV[1])\n"
            + "if n == 1 then wakehead(KEYS[2], ARGV[3], ARGV[2]) end\n"
            + "return n\n");

    /**
     * Giving up an acquisition: removes whatever the token may have left, whether the last attempt's outcome is
     * known or not (the entry is not known then: it is found by its owner token), and wakes the lock's waiters (a
     * waiting writer or the queue's head going away may let them in: with a queue, its new live head is named).
     * KEYS: lock, sorted set, waiting writers, waiter key, waiter queue, the lock's revocation requests (a request
     * for a grant whose answer was lost). ARGV: token, channel, the prefix of the waiter keys, '1' if the lock is
     * first-come first-served.
     */
    static final Script ABANDON = new Script(QUEUE
            + "local function mine(v) return v and (v == ARGV[1] or string.sub(v, 1, #ARGV[1] + 1) == ARGV[1] .. '|') end\n"
            + "if mine(redis.call('GET', KEYS[1])) then redis.call('DEL', KEYS[1]) end\n"
            + "for _, m in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do\n"
            + "  if mine(m) then redis.call('ZREM', KEYS[2], m) end\n"
            + "end\n"
            + "redis.call('ZREM', KEYS[3], ARGV[1])\n"
            + "redis.call('ZREM', KEYS[5], ARGV[1])\n"
            + "redis.call('DEL', KEYS[4])\n"
            + "redis.call('HDEL', KEYS[6], ARGV[1])\n"
            + "if ARGV[4] == '1' then\n"
            + "  wakehead(KEYS[5], ARGV[3], ARGV[2])\n"
            + "else\n"
            + "  redis.call('PUBLISH', ARGV[2], '')\n"
            + "end\n"
            + "return 1\n");

    /**
     * Revocation request (spec §27). KEYS: lock, readers, permits, the lock's revocation requests. ARGV: fencing
     * token, requester, the revocation channel. Finds the live holder with the token (the exclusive entry, else a
     * reader or permit whose score has not passed); if its entry lacks the revocable mark, writes nothing and
     * returns -1; else sets the request (field: its owner token, value: the requester), keeps the requests' key for
     * at least as long as the holder's entry can live (its renewals extend nothing once a request is there), names
     * the owner token on the channel and returns 1. Returns 0 if no live holder has the token.
     */
    static final Script REVOKE = new Script(PROLOGUE
            + "local function token(entry) return string.match(entry, '^[^|]*|(%d+)|') end\n"
            + "local found, left\n"
            + "local holder = redis.call('GET', KEYS[1])\n"
            + "if holder and token(holder) == ARGV[1] then\n"
            + "  found, left = holder, redis.call('PTTL', KEYS[1])\n"
            + "else\n"
            + "  for i = 2, 3 do\n"
            + "    local live = redis.call('ZRANGEBYSCORE', KEYS[i], '(' .. string.format('%d', now), '+inf',\n"
            + "      'WITHSCORES')\n"
            + "    for j = 1, #live, 2 do\n"
            + "      if not found and token(live[j]) == ARGV[1] then\n"
            + "        found, left = live[j], tonumber(live[j + 1]) - now\n"
            + "      end\n"
            + "    end\n"
            + "  end\n"
            + "end\n"
            + "if not found then return 0 end\n"
            + "if string.sub(found, -2) ~= '|r' then return -1 end\n"
            + "local owner = string.match(found, '^[^|]*')\n"
            + "redis.call('HSET', KEYS[4], owner, ARGV[2])\n"
            + "keepset(KEYS[4], math.max(left, 0) + 100)\n"
            + "redis.call('PUBLISH', ARGV[3], owner)\n"
            + "return 1\n");

    /**
     * Inspection, read only. KEYS: lock, readers, permits. Returns the exclusive entry (or ''), the live reader
     * entries, the live permit entries, and the server time in ms.
     */
    static final Script INSPECT = new Script(PROLOGUE
            + "local live = '(' .. string.format('%d', now)\n"
            + "local holder = redis.call('GET', KEYS[1]) or ''\n"
            + "return {holder, redis.call('ZRANGEBYSCORE', KEYS[2], live, '+inf'),\n"
            + "  redis.call('ZRANGEBYSCORE', KEYS[3], live, '+inf'), string.format('%d', now)}\n");

    /**
     * Shared release, then a message on the lock's channel. KEYS: sorted set, the lock's revocation requests. ARGV:
     * entry, channel, the owner token of a revocable acquisition (else ''). Returns 1 if it was there, else 0.
     */
    static final Script RELEASE_SHARED = new Script(""
            + "if ARGV[3] ~= '' then redis.call('HDEL', KEYS[2], ARGV[3]) end\n"
            + "local n = redis.call('ZREM', KEYS[1], ARGV[1])\n"
            + "if n == 1 then redis.call('PUBLISH', ARGV[2], '') end\n"
            + "return n\n");
}
