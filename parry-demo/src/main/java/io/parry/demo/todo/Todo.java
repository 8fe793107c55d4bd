package io.parry.demo.todo;

/** A stored todo. */
record Todo(long id, String title, boolean completed, int order) {
    Todo apply(TodoPatch patch) {
        return new Todo(
                id,
                patch.title() != null ? patch.title() : title,
                patch.completed() != null ? patch.completed() : completed,
                patch.order() != null ? patch.order() : order);
    }
}
