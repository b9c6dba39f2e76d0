/*
 * A fake, not VASSAL code: the VASSAL types the adapter uses, with the stand-ins' signatures and just enough
 * behaviour to run the adapter headless in AdapterTests (chat and log recorded, preferences in memory, the
 * selection a list). Test-only: never in the build outputs, never on a module's class path.
 */
package VASSAL.counters;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

public class KeyBuffer {
  private static final KeyBuffer BUFFER = new KeyBuffer();
  public final List<GamePiece> selected = new CopyOnWriteArrayList<>();

  public static KeyBuffer getBuffer() {
    return BUFFER;
  }

  public List<GamePiece> asList() {
    return selected;
  }
}
