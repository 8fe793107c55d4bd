package io.parry.annotations.processor.dialects;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/** Notes in memory. */
final class NoteStore {
    private final Map<Long, Note> notes = new ConcurrentSkipListMap<>();
    private final AtomicLong ids = new AtomicLong();

    List<Note> list(int limit, String query) {
        return notes.values().stream()
                .filter(note -> query == null || note.text().contains(query))
                .limit(limit)
                .toList();
    }

    Optional<Note> find(long id) {
        return Optional.ofNullable(notes.get(id));
    }

    Note add(String text) {
        Note note = new Note(ids.incrementAndGet(), text);
        notes.put(note.id(), note);
        return note;
    }

    void delete(long id) {
        notes.remove(id);
    }
}
