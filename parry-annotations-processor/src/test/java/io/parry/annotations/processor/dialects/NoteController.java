package io.parry.annotations.processor.dialects;

import java.util.List;
import java.util.Optional;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Notes as a Spring Web controller, moved unchanged from a Spring service. */
@RestController
@RequestMapping("/spring/notes")
public class NoteController {
    private final NoteStore store = new NoteStore();

    /** Lists the notes. */
    @GetMapping
    public List<Note> list(
            @RequestParam(defaultValue = "10") int limit, @RequestParam(name = "q", required = false) String query) {
        return store.list(limit, query);
    }

    /** Finds a note. */
    @GetMapping("/{id}")
    public Optional<Note> one(@PathVariable long id) {
        return store.find(id);
    }

    /** Adds a note. */
    @PostMapping(consumes = "application/json")
    public Note add(@RequestBody NewNote note, @RequestHeader(value = "x-author", required = false) String author) {
        return store.add(author == null ? note.text() : author + ": " + note.text());
    }

    @RequestMapping(path = "/{id}", method = RequestMethod.DELETE)
    public void delete(@PathVariable("id") long id) {
        store.delete(id);
    }
}
