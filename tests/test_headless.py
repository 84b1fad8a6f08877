"""The core and the CLI work with Qt unimportable (a GPU box, a CI shard without Qt)."""

import json
import subprocess
import sys
import textwrap

BLOCK_QT = textwrap.dedent(
    """
    import sys, importlib.abc
    class Block(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split('.')[0] in ('PySide6', 'shiboken6', 'pyqtgraph', 'PyQt5', 'PyQt6'):
                raise ImportError('blocked for this test: ' + name)
    sys.meta_path.insert(0, Block())
    """
)


def _run(code: str):
    return subprocess.run([sys.executable, "-c", BLOCK_QT + textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=300)


def test_core_imports_without_qt():
    proc = _run(
        """
        import explorer.model, explorer.occupancy
        from explorer.model.scenario import Scenario
        from explorer.occupancy import theoretical_occupancy
        r = theoretical_occupancy(Scenario().gpu, 256, 32)
        assert r.active_blocks_per_sm == 8
        assert not any(m.startswith(('PySide6', 'pyqtgraph')) for m in sys.modules)
        print('ok')
        """
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"


def test_cli_occupancy_without_qt():
    proc = _run(
        """
        from explorer.cli.main import main
        sys.exit(main(['occupancy', '--gpu', 'H100', '--threads', '256', '--regs', '64', '--json']))
        """
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["active_blocks_per_sm"] == 4


def test_gui_without_qt_is_one_clear_line():
    proc = _run(
        """
        from explorer.cli.main import main
        sys.exit(main([]))
        """
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert "PySide6" in proc.stderr
