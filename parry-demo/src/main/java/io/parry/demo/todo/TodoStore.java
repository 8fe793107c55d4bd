package io.parry.demo.todo;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/** Todos in memory, safe under concurrent requests: each change is one atomic map operation. */
final class TodoStore {
    private static final Comparator<Todo> BY_ORDER_THEN_AGE =
            (a, b) -> a.order() != b.order() ? Integer.compare(a.order(), b.order()) : Long.compare(a.id(), b.id());

    private final ConcurrentMap<Long, Todo> todos = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();

    Todo add(NewTodo todo) {
        long id = ids.incrementAndGet();
        Todo added = new Todo(
                id,
                todo.title(),
                todo.completed() != null && todo.completed(),
                todo.order() != null ? todo.order() : (int) id);
        todos.put(id, added);
        return added;
    }

    Optional<Todo> find(long id) {
        return Optional.ofNullable(todos.get(id));
    }

    /** The updated todo, or empty when there is none with this id. */
    Optional<Todo> update(long id, TodoPatch patch) {
        return Optional.ofNullable(todos.computeIfPresent(id, (key, todo) -> todo.apply(patch)));
    }

    boolean delete(long id) {
        return todos.remove(id) != null;
    }

    void deleteAll() {
        todos.clear();
    }

    /** Every todo, by order and then by age. */
    List<Todo> all() {
        return todos.values().stream().sorted(BY_ORDER_THEN_AGE).toList();
    }
}
