package io.parry.validation.internal;

import jakarta.validation.ElementKind;
import jakarta.validation.Path;

/**
 * Writes a violation's property path as a field path a client can follow: {@code address.city},
 * {@code items[1].quantity}, {@code tags[0]} for a list element, {@code labels[home]} for a map
 * value; empty for the object as a whole. Container-element node names such as
 * {@code <list element>} are left out.
 */
public final class ViolationPaths {
    private ViolationPaths() {}

    public static String of(Path path) {
        StringBuilder field = new StringBuilder();
        for (Path.Node node : path) {
            if (node.isInIterable()) {
                field.append('[');
                if (node.getIndex() != null) {
                    field.append(node.getIndex());
                } else if (node.getKey() != null) {
                    field.append(node.getKey());
                }
                field.append(']');
            }
            if (node.getName() == null || node.getKind() == ElementKind.CONTAINER_ELEMENT) {
                continue;
            }
            if (field.length() > 0) {
                field.append('.');
            }
            field.append(node.getName());
        }
        return field.toString();
    }
}
