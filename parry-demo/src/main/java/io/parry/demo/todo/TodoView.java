package io.parry.demo.todo;

/** A todo as clients see it, with the absolute URL that addresses it. */
record TodoView(String title, boolean completed, int order, String url) {
    static TodoView of(Todo todo, String baseUrl) {
        return new TodoView(todo.title(), todo.completed(), todo.order(), baseUrl + "/todos/" + todo.id());
    }
}
