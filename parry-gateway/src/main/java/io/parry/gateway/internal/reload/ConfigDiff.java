package io.parry.gateway.internal.reload;

import io.parry.gateway.internal.config.GatewayConfig;
import io.parry.gateway.internal.config.RouteConfig;
import io.parry.server.ServerOptions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What changed between two configurations, by name: routes and upstream groups added, removed and
 * changed, whether the routes' order changed, and which settings only a restart applies (listeners,
 * limits, server timeouts, access log, metrics, tracing).
 */
public final class ConfigDiff {
    private final List<String> routesAdded = new ArrayList<>();
    private final List<String> routesRemoved = new ArrayList<>();
    private final List<String> routesChanged = new ArrayList<>();
    private final List<String> upstreamsAdded = new ArrayList<>();
    private final List<String> upstreamsRemoved = new ArrayList<>();
    private final List<String> upstreamsChanged = new ArrayList<>();
    private final List<String> needRestart = new ArrayList<>();
    private boolean routesReordered;

    private ConfigDiff() {}

    /** The changes from {@code previous} to {@code next}. */
    public static ConfigDiff between(GatewayConfig previous, GatewayConfig next) {
        ConfigDiff diff = new ConfigDiff();
        Map<String, RouteConfig> before = byName(previous.routes());
        Map<String, RouteConfig> after = byName(next.routes());
        compare(before, after, diff.routesAdded, diff.routesRemoved, diff.routesChanged);
        compare(
                previous.upstreams(),
                next.upstreams(),
                diff.upstreamsAdded,
                diff.upstreamsRemoved,
                diff.upstreamsChanged);
        List<String> kept = new ArrayList<>(after.keySet());
        kept.retainAll(before.keySet());
        List<String> keptBefore = new ArrayList<>(before.keySet());
        keptBefore.retainAll(after.keySet());
        diff.routesReordered = !kept.equals(keptBefore);
        diff.restartSetting("listener", address(previous.listener()), address(next.listener()));
        diff.restartSetting("admin", previous.admin(), next.admin());
        diff.restartSetting("admin token", previous.adminToken(), next.adminToken());
        diff.restartSetting(
                "limits", previous.listener().limits(), next.listener().limits());
        diff.restartSetting(
                "timeouts", previous.listener().timeouts(), next.listener().timeouts());
        diff.restartSetting("accessLog", previous.accessLog(), next.accessLog());
        diff.restartSetting("metrics", previous.metrics(), next.metrics());
        diff.restartSetting(
                "tracing", previous.listener().tracing(), next.listener().tracing());
        return diff;
    }

    /** The settings that differ but only take effect when the gateway restarts. */
    public List<String> needRestart() {
        return List.copyOf(needRestart);
    }

    /** Whether the routes or upstream groups changed. */
    public boolean changesRouting() {
        return routesReordered
                || !(routesAdded.isEmpty()
                        && routesRemoved.isEmpty()
                        && routesChanged.isEmpty()
                        && upstreamsAdded.isEmpty()
                        && upstreamsRemoved.isEmpty()
                        && upstreamsChanged.isEmpty());
    }

    /**
     * One line for the log, such as {@code routes: added [a], removed [], changed [b]; upstreams:
     * added [], removed [], changed [todo]}.
     */
    @Override
    public String toString() {
        return "routes: added " + routesAdded + ", removed " + routesRemoved + ", changed " + routesChanged
                + (routesReordered ? ", reordered" : "") + "; upstreams: added " + upstreamsAdded + ", removed "
                + upstreamsRemoved + ", changed " + upstreamsChanged;
    }

    /** The listener's options without those reported under their own names. */
    private static ServerOptions address(ServerOptions listener) {
        ServerOptions defaults = ServerOptions.ofDefault();
        return listener.toBuilder()
                .limits(defaults.limits())
                .timeouts(defaults.timeouts())
                .tracing(defaults.tracing())
                .build();
    }

    private void restartSetting(String name, Object before, Object after) {
        if (!Objects.equals(before, after)) {
            needRestart.add(name);
        }
    }

    private static <T> void compare(
            Map<String, T> before,
            Map<String, T> after,
            List<String> added,
            List<String> removed,
            List<String> changed) {
        after.forEach((name, value) -> {
            T old = before.get(name);
            if (old == null) {
                added.add(name);
            } else if (!old.equals(value)) {
                changed.add(name);
            }
        });
        before.keySet().stream().filter(name -> !after.containsKey(name)).forEach(removed::add);
    }

    private static Map<String, RouteConfig> byName(List<RouteConfig> routes) {
        Map<String, RouteConfig> byName = new LinkedHashMap<>();
        routes.forEach(route -> byName.put(route.name(), route));
        return byName;
    }
}
