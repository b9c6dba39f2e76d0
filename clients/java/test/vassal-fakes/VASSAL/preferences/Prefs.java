/*
 * A fake, not VASSAL code: the VASSAL types the adapter uses, with the stand-ins' signatures and just enough
 * behaviour to run the adapter headless in AdapterTests (chat and log recorded, preferences in memory, the
 * selection a list). Test-only: never in the build outputs, never on a module's class path.
 */
package VASSAL.preferences;

import VASSAL.configure.Configurer;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/** In memory: options by key, and the "file" (stored values) that save() writes and a new Prefs reads. */
public class Prefs {
  public final Map<String, Configurer> options = new LinkedHashMap<>();
  public final Map<String, String> categories = new HashMap<>();
  public final Map<String, String> stored = new HashMap<>();
  public int saves;

  public void addOption(String category, Configurer o) {
    if (options.containsKey(o.getKey())) return;
    options.put(o.getKey(), o);
    if (category != null) categories.put(o.getKey(), category);
    if (stored.containsKey(o.getKey())) o.setValue(stored.get(o.getKey()));
  }

  public synchronized void setValue(String option, Object value) {
    options.get(option).setValue(String.valueOf(value));
  }

  public synchronized Object getValue(String key) {
    Configurer c = options.get(key);
    return c == null ? null : c.getValue();
  }

  public synchronized void save() throws java.io.IOException {
    for (Configurer c : options.values()) if (c.getValueString() != null) stored.put(c.getKey(), c.getValueString());
    saves++;
  }
}
