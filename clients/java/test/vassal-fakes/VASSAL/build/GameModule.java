/*
 * A fake, not VASSAL code: the VASSAL types the adapter uses, with the stand-ins' signatures and just enough
 * behaviour to run the adapter headless in AdapterTests (chat and log recorded, preferences in memory, the
 * selection a list). Test-only: never in the build outputs, never on a module's class path.
 */
package VASSAL.build;

import VASSAL.build.module.Chatter;
import VASSAL.build.module.GameComponent;
import VASSAL.command.Command;
import VASSAL.command.CommandEncoder;
import VASSAL.launch.PlayerWindow;
import VASSAL.preferences.Prefs;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** One module: what was sent and logged (as encoded lines), the chat, the warnings, the global properties. */
public class GameModule {
  private static GameModule module;
  public final Chatter chatter = new Chatter();
  public final Prefs prefs = new Prefs();
  public final List<CommandEncoder> encoders = new CopyOnWriteArrayList<>();
  public final List<String> logged = new CopyOnWriteArrayList<>();
  public final List<String> warnings = new CopyOnWriteArrayList<>();
  public final Map<String, Object> properties = new ConcurrentHashMap<>();
  public final List<java.awt.Component> toolbar = new CopyOnWriteArrayList<>();
  public final List<GameComponent> components = new CopyOnWriteArrayList<>();

  public static void init(GameModule m) {
    module = m;
  }

  public PlayerWindow getPlayerWindow() {
    return null;
  }

  public void addCommandEncoder(CommandEncoder ce) {
    encoders.add(ce);
  }

  public void removeCommandEncoder(CommandEncoder ce) {
    encoders.remove(ce);
  }

  public void warn(String s) {
    warnings.add(s);
  }

  public Chatter getChatter() {
    return chatter;
  }

  /** Encoded as VASSAL does, by asking each encoder; only lines of the encoders are kept. */
  public void sendAndLog(Command c) {
    for (CommandEncoder e : encoders) {
      String line = e.encode(c);
      if (line != null) {
        logged.add(line);
        return;
      }
    }
    throw new IllegalStateException("no encoder for " + c);
  }

  public Prefs getPrefs() {
    return prefs;
  }

  public Object getProperty(Object key) {
    return properties.get(String.valueOf(key));
  }

  public static GameModule getGameModule() {
    return module;
  }
}
