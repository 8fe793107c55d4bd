package io.parry.gateway;

import io.parry.http.HttpResponse;
import io.parry.server.Handler;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * An upstream that keeps every request it received in full (method, target, fields, body) and
 * answers {@code seen <n> bytes}. A request whose body broke never completes, so it is not kept.
 */
final class RecordingUpstream {
    /** One request as the upstream read it; {@code fields} is each {@code name: value} on its own line. */
    record Seen(String method, String target, String fields, String body) {}

    private final ConcurrentLinkedQueue<Seen> seen = new ConcurrentLinkedQueue<>();

    Handler handler() {
        return (ctx, request) -> request.body().aggregate(4 << 20).thenApply(body -> {
            StringBuilder fields = new StringBuilder();
            request.headers()
                    .forEach((name, value) ->
                            fields.append(name).append(": ").append(value).append('\n'));
            String text = new String(body.toByteArray(), StandardCharsets.ISO_8859_1);
            seen.add(new Seen(request.method().name(), request.target(), fields.toString(), text));
            return HttpResponse.ofText("seen " + body.length() + " bytes");
        });
    }

    /** The requests received so far whose target starts with the prefix. */
    List<Seen> seen(String targetPrefix) {
        return seen.stream().filter(s -> s.target().startsWith(targetPrefix)).toList();
    }

    List<Seen> all() {
        return List.copyOf(seen);
    }
}
