package io.parry.demo.todo;

import io.parry.startup.Startup;

/**
 * The Todo-Backend service as examples/todo runs it (annotated controller, OpenAPI document, /docs),
 * started from the benchmarks' jar so that its start-up compares with {@link FunctionalTodoApp}'s
 * from the same jar.
 */
public final class AnnotatedTodoApp {
    private AnnotatedTodoApp() {}

    public static void main(String[] args) {
        Startup.prepare();
        TodoService.start(Startup.port());
    }
}
