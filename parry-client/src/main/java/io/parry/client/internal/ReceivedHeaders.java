package io.parry.client.internal;

import io.parry.http.HttpHeaders;
import java.util.Iterator;
import java.util.Map;

/**
 * Parry's immutable copy of the fields an upstream sent, in wire order. Netty's decoder is told not
 * to validate them; Parry's {@link HttpHeaders} validates each name and value once here.
 */
final class ReceivedHeaders {
    private ReceivedHeaders() {}

    /**
     * Copies the fields.
     *
     * @throws IllegalArgumentException if a name is not a token or a value holds a control character
     */
    static HttpHeaders of(io.netty.handler.codec.http.HttpHeaders netty) {
        int size = netty.size();
        if (size == 0) {
            return HttpHeaders.empty();
        }
        String[] namesAndValues = new String[2 * size];
        int i = 0;
        Iterator<Map.Entry<CharSequence, CharSequence>> entries = netty.iteratorCharSequence();
        while (entries.hasNext()) {
            Map.Entry<CharSequence, CharSequence> entry = entries.next();
            namesAndValues[i++] = entry.getKey().toString();
            namesAndValues[i++] = entry.getValue().toString();
        }
        return HttpHeaders.of(namesAndValues);
    }
}
