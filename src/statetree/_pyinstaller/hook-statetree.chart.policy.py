# PyInstaller hook: the chart policies are found by the package at import time (see
# statetree.chart.policy), so a frozen program must take every module of it.
from PyInstaller.utils.hooks import collect_submodules

hiddenimports = collect_submodules("statetree.chart.policy")
