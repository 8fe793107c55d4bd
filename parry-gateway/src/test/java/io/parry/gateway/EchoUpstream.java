package io.parry.gateway;

import io.parry.http.HttpResponse;
import io.parry.server.Handler;

/** An upstream that answers with its name and what it received: {@code alpha GET /x host=h routed=r}. */
final class EchoUpstream {
    private EchoUpstream() {}

    static Handler named(String name) {
        return (ctx, request) -> HttpResponse.ofText(name + " " + request.method() + " " + request.target() + " host="
                        + request.authority() + " routed=" + request.headers().get("x-routed"))
                .withHeader("x-upstream", name)
                .toStage();
    }
}
