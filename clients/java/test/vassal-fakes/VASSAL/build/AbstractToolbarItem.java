/*
 * A fake, not VASSAL code: the VASSAL types the adapter uses, with the stand-ins' signatures and just enough
 * behaviour to run the adapter headless in AdapterTests (chat and log recorded, preferences in memory, the
 * selection a list). Test-only: never in the build outputs, never on a module's class path.
 */
package VASSAL.build;

import VASSAL.build.module.GameComponent;
import VASSAL.command.Command;
import VASSAL.tools.LaunchButton;
import java.awt.event.ActionListener;
import java.beans.PropertyChangeEvent;
import java.beans.PropertyChangeListener;

public abstract class AbstractToolbarItem extends AbstractConfigurable implements GameComponent, PropertyChangeListener {
  public static final String NAME          = "name";
  public static final String TOOLTIP       = "tooltip";
  public static final String BUTTON_TEXT   = "text";
  private LaunchButton launch;

  protected LaunchButton makeLaunchButton(String tooltip, String button_text, String iconFile, ActionListener action) {
    return new LaunchButton(button_text, TOOLTIP, BUTTON_TEXT, "hotkey", "icon", action, false);
  }

  public LaunchButton getLaunchButton() {
    return launch;
  }

  protected void setLaunchButton(LaunchButton launch) {
    this.launch = launch;
  }

  @Override
  public void propertyChange(PropertyChangeEvent evt) {
  }

  @Override
  public void setup(boolean gameStarting) {
  }

  @Override
  public Command getRestoreCommand() {
    return null;
  }

  @Override
  public String[] getAttributeNames() {
    return new String[] {NAME, BUTTON_TEXT, TOOLTIP};
  }

  @Override
  public String[] getAttributeDescriptions() {
    return new String[] {"Name", "Button text", "Tooltip"};
  }

  @Override
  public Class<?>[] getAttributeTypes() {
    return new Class<?>[] {String.class, String.class, String.class};
  }

  @Override
  public void setAttribute(String key, Object value) {
    if (NAME.equals(key)) setConfigureName(String.valueOf(value));
    else if (BUTTON_TEXT.equals(key)) launch.setText(String.valueOf(value));
    else if (TOOLTIP.equals(key)) launch.setToolTipText(String.valueOf(value));
  }

  @Override
  public String getAttributeValueString(String key) {
    if (NAME.equals(key)) return getConfigureName();
    if (BUTTON_TEXT.equals(key)) return launch.getText();
    if (TOOLTIP.equals(key)) return launch.getToolTipText();
    return null;
  }

  @Override
  public void addTo(Buildable parent) {
    GameModule.getGameModule().toolbar.add(launch);
    GameModule.getGameModule().components.add(this);
  }

  @Override
  public void removeFrom(Buildable parent) {
    GameModule.getGameModule().toolbar.remove(launch);
    GameModule.getGameModule().components.remove(this);
  }
}
