package io.parry.benchmarks.todo;

import io.parry.json.JsonCodec;
import io.parry.json.JsonEndpoints;
import io.parry.json.JsonResult;
import io.parry.server.Server;
import io.parry.startup.Startup;
import io.parry.validation.BeanValidator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Parry's side of the typed-JSON benchmark: {@code POST /todos} decodes a {@link NewTodo}, validates
 * it with Bean Validation and answers 201 with the {@link Todo} as JSON. Port from {@code PORT}
 * (default 8080).
 */
public final class ParryTodoServer {
    private ParryTodoServer() {}

    public static void main(String[] args) {
        Startup.prepare();
        JsonCodec codec = JsonCodec.ofDefault();
        JsonEndpoints endpoints = JsonEndpoints.builder()
                .codec(codec)
                .validator(BeanValidator.create(codec))
                .build();
        AtomicLong ids = new AtomicLong();
        var create = endpoints.of(NewTodo.class, (ctx, todo) -> {
            long id = ids.incrementAndGet();
            return CompletableFuture.completedFuture(JsonResult.created("/todos/" + id, Todo.from(id, todo)));
        });
        Server.builder().port(Startup.port()).handler(create).build().start();
    }
}
