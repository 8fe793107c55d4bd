package io.parry.benchmarks.todo;

import io.parry.json.JsonCodec;
import io.parry.json.JsonEndpoints;
import io.parry.server.Server;
import io.parry.server.routing.Router;
import io.parry.startup.Startup;
import io.parry.validation.BeanValidator;

/**
 * {@link ParryTodoServer}'s work through the routes generated from {@link AnnotatedTodoController}, for
 * the {@code todo} scenario of {@code load.sh} with {@code TODO_PARRY_CMD}. Port from {@code PORT}
 * (default 8080).
 */
public final class AnnotatedTodoServer {
    private AnnotatedTodoServer() {}

    public static void main(String[] args) {
        Startup.prepare();
        JsonCodec codec = JsonCodec.ofDefault();
        JsonEndpoints json = JsonEndpoints.builder()
                .codec(codec)
                .validator(BeanValidator.create(codec))
                .build();
        Router.Builder router = Router.builder();
        new AnnotatedTodoControllerRoutes(new AnnotatedTodoController(), json).addTo(router);
        Server.builder().port(Startup.port()).handler(router.build()).build().start();
    }
}
