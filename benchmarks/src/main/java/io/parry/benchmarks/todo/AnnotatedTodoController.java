package io.parry.benchmarks.todo;

import io.parry.annotations.Body;
import io.parry.annotations.Controller;
import io.parry.annotations.Post;
import io.parry.json.JsonResult;
import java.util.concurrent.atomic.AtomicLong;

/** {@link ParryTodoServer}'s endpoint as an annotated controller: the same work through generated routes. */
@Controller
public final class AnnotatedTodoController {
    private final AtomicLong ids = new AtomicLong();

    /** Creates a todo. */
    @Post("/todos")
    JsonResult<Todo> create(@Body NewTodo todo) {
        long id = ids.incrementAndGet();
        return JsonResult.created("/todos/" + id, Todo.from(id, todo));
    }
}
