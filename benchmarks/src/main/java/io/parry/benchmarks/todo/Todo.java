package io.parry.benchmarks.todo;

/** The response both JSON servers encode. */
public record Todo(long id, String title, boolean completed, Integer order) {
    static Todo from(long id, NewTodo todo) {
        return new Todo(id, todo.title(), todo.completed(), todo.order());
    }
}
