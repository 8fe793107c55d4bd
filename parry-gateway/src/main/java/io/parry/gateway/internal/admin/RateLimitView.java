package io.parry.gateway.internal.admin;

import io.parry.gateway.internal.config.RateLimitConfig;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** A route's rate limit in {@code GET /admin/routes}, in the configuration file's terms. */
final class RateLimitView {
    private RateLimitView() {}

    static Map<String, Object> of(RateLimitConfig config) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("rate", config.limit().rate());
        view.put("period", Durations.format(config.limit().period()));
        view.put("burst", config.limit().burst());
        view.put("key", config.key());
        if (config.redis()) {
            view.put("store", "redis");
            view.put("timeout", Durations.format(config.timeout()));
            view.put("onFailure", config.onFailure().name().toLowerCase(Locale.ROOT));
            view.put("batch", config.batch());
        } else {
            view.put("store", "local");
            view.put("maxKeys", config.maxKeys());
        }
        return view;
    }
}
