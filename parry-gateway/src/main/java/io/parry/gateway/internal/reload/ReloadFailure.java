package io.parry.gateway.internal.reload;

import java.time.Instant;
import java.util.List;

/**
 * The last rejected reload, shown by the admin API until a reload succeeds.
 *
 * @param at when it was rejected
 * @param trigger what asked for the reload: file change, SIGHUP, admin API or API
 * @param errors why, one sentence each
 */
public record ReloadFailure(Instant at, String trigger, List<String> errors) {}
