# IPython profile of the kernels that execute the chapters for the HTML book
# (`make book` sets IPYTHONDIR to book/_ext/ipython; nbval and `make lab` do not).
# Static figures are stored at twice their CSS size ("retina": the PNG's
# width/height metadata keep the display size), sharp on high-density screens.
c = get_config()  # noqa: F821
c.InlineBackend.figure_formats = {"retina"}
c.HistoryManager.enabled = False
