package io.parry.gateway.internal.admin;

import io.parry.gateway.internal.reload.ActiveConfig;
import io.parry.gateway.internal.reload.ReloadFailure;
import java.util.LinkedHashMap;
import java.util.Map;

/** The fields every admin view starts with, and the last rejected reload. */
final class VersionView {
    private VersionView() {}

    /** {@code version}, {@code label} when the file has one, and {@code appliedAt}. */
    static Map<String, Object> of(ActiveConfig active) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("version", active.version());
        String label = active.config().version();
        if (label != null && !label.isEmpty()) {
            view.put("label", label);
        }
        view.put("appliedAt", active.appliedAt().toString());
        return view;
    }

    static Map<String, Object> failure(ReloadFailure failure) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("at", failure.at().toString());
        view.put("trigger", failure.trigger());
        view.put("errors", failure.errors());
        return view;
    }
}
