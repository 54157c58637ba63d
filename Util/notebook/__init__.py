"""What the notebooks show: the widgets (play, chooser, replay, hints, the chessground board), their static
copies, board pictures and figures, and the headless run of the numbered notebooks.
"""
